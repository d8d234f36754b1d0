// `node --import ./test/support/import-log.mjs …`: registers the hooks of import-log-hooks.mjs.
import { register } from 'node:module';

register('./import-log-hooks.mjs', import.meta.url);
