// The health area's surface for other features: its query keys (so a canary saved in Settings
// refreshes the dashboard). Pages are reached through the route table.
export { healthKeys } from './keys';
