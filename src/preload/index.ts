import { contextBridge, ipcRenderer } from 'electron';
import { createWaypointApi } from './create-api';

// Sandboxed preload: expose exactly the typed API object, never ipcRenderer or a generic send.
contextBridge.exposeInMainWorld('waypoint', createWaypointApi(ipcRenderer));
