// TEMPORARY: regenerate-self (self-command.ts) still imports from here until its owner's branch lands.
export { defaultSpecDir, displayPath, PACKAGE_ROOT, toolVersion } from '../pipeline/paths.js';
