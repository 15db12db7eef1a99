import packageJson from '../../../package.json';

/** The app version shown in About and getAppInfo; bundled from package.json at build time. */
export const APP_VERSION: string = packageJson.version;
