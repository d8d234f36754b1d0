import type { ToolHandlers } from '../../generated/types.js';
import { PNG_1X1 } from '../data.js';

/** test_image_content: a 1×1 PNG. */
export const testImageContent: ToolHandlers['test_image_content'] = () => ({
  content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }],
});
