export * from './resources.js';
export * from './rbac.js';
export * from './features.js';
export * from './users.js';
export * from './incidents.js';
export * from './connections.js';
export * from './notifications.js';
export * from './logs.js';
