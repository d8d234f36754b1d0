/** Content blocks and resource contents as tools, prompts and resources return them; re-exported by `api.ts`. */
import type { JsonObject } from '../api.js';

export interface Annotations extends JsonObject {
  audience?: ('user' | 'assistant')[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent extends JsonObject {
  type: 'text';
  text: string;
  annotations?: Annotations;
}
export interface ImageContent extends JsonObject {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
}
export interface AudioContent extends JsonObject {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
}
export interface ResourceLink extends JsonObject {
  type: 'resource_link';
  uri: string;
  name: string;
  mimeType?: string;
}
export interface TextResourceContents extends JsonObject {
  uri: string;
  mimeType?: string;
  text: string;
}
export interface BlobResourceContents extends JsonObject {
  uri: string;
  mimeType?: string;
  blob: string;
}
export type ResourceContents = TextResourceContents | BlobResourceContents;
export interface EmbeddedResource extends JsonObject {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
}
export type ContentBlock =
  TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;
