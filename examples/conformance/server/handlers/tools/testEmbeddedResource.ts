import type { ToolHandlers } from '../../generated/types.js';

/** test_embedded_resource: one embedded text resource. */
export const testEmbeddedResource: ToolHandlers['test_embedded_resource'] = () => ({
  content: [
    {
      type: 'resource',
      resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' },
    },
  ],
});
