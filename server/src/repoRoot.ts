// The repository's root directory, against which configured relative paths are resolved (WEB_DIST_DIR). This file
// stays directly under server/src so that one expression serves the sources and the bundle alike: two levels up
// from both server/src/repoRoot.ts and server/dist/main.js.
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
