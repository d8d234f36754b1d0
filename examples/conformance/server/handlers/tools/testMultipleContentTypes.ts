import type { ToolHandlers } from '../../generated/types.js';
import { PNG_1X1 } from '../data.js';

/** test_multiple_content_types: text, an image and an embedded resource. */
export const testMultipleContentTypes: ToolHandlers['test_multiple_content_types'] = () => ({
  content: [
    { type: 'text', text: 'Multiple content types test:' },
    { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
    {
      type: 'resource',
      resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' },
    },
  ],
});
