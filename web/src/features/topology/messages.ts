// Texts of the topology screens that the spec fixes (spec/2 §2.6, §8).
export const NO_MATCH = 'There are no components matching this criteria';
export const MULTIPLE_COMPONENTS = 'Response has multiple components for the id.';
