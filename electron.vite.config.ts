import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// One build, three targets. The main build has three entries: the Electron shell (index), the
// web shell (web) and the command line (cli: `waypoint run` and `waypoint mcp`), which share every
// service under src/main.
export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve('src/main/electron/main.ts'),
          web: resolve('src/main/web/web-entry.ts'),
          cli: resolve('src/main/cli/cli-entry.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // A sandboxed preload can only require('electron'): bundle zod & co. instead of externalizing.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    plugins: [react()],
    build: {
      // Minified: the renderer's size is a start-up cost people feel. WAYPOINT_BUILD_MINIFY=0 keeps
      // the names, for reading a CPU profile of the page (bench/README).
      minify: process.env.WAYPOINT_BUILD_MINIFY !== '0',
      rollupOptions: {
        input: { index: resolve('src/renderer/index.html') },
        // The libraries in chunks of their own, below Vite's 500 kB warning: they change far less
        // often than the app, so a rebuilt app keeps them cached, and no one chunk grows unnoticed.
        output: {
          codeSplitting: {
            groups: [
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
              { name: 'highlight', test: /node_modules[\\/]highlight\.js[\\/]/, priority: 2 },
              { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
            ],
          },
        },
      },
    },
  },
});
