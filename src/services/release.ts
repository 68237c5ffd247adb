import { migrations } from '../store/migrations/index.js';

/** The newest migration this build carries: two builds with the same package version may differ in it. */
export const NEWEST_MIGRATION = Object.keys(migrations).at(-1) ?? 'none';
