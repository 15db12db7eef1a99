/** electron-vite copies a `?asset` import next to the built main process and gives its path. */
declare module '*?asset' {
  const path: string;
  export default path;
}
