import type { ResourceHandlers } from '../generated/types.js';
import { PNG_1X1 } from './data.js';

/** Reads each resource of the manifest, keyed by URI. */
export const resources: ResourceHandlers = {
  'test://static-text': (uri) => ({
    contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
  }),
  'test://static-binary': (uri) => ({
    contents: [{ uri, mimeType: 'image/png', blob: PNG_1X1 }],
  }),
  'test://watched-resource': (uri) => ({
    contents: [{ uri, mimeType: 'text/plain', text: 'This resource is watched for changes.' }],
  }),
};
