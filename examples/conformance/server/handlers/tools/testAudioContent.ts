import type { ToolHandlers } from '../../generated/types.js';
import { WAV_SILENCE } from '../data.js';

/** test_audio_content: a minimal WAV file. */
export const testAudioContent: ToolHandlers['test_audio_content'] = () => ({
  content: [{ type: 'audio', data: WAV_SILENCE, mimeType: 'audio/wav' }],
});
