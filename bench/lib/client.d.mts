export declare const PROTOCOL_VERSION: string;

export interface ServerCommand {
  command: string;
  args: string[];
  cwd?: string;
}

export declare class StdioPeer {
  constructor(server: ServerCommand);
  readonly pid: number;
  readonly stderr: string;
  request(method: string, params?: unknown): Promise<unknown>;
  notify(method: string, params?: unknown): void;
  initialize(): Promise<unknown>;
  callTool(name: string, args: unknown): Promise<unknown>;
  close(): Promise<void>;
}
