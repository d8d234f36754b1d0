/** Sample values from JSON Schemas (mcp-gen mock, and examples on reference pages). */
export { sampleValue, SampleError, type SampleRequest, type SampleValidator } from './generate.js';
export { seededRandom, type Random } from './prng.js';
