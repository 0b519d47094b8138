// The catalog area's public surface: its pages are reached through the route table only.
export { default as CatalogPage } from './CatalogPage';
