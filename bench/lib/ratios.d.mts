export interface RatioTarget {
  /** ours / reference must stay at or below this. */
  ratio?: number;
  /** ours itself (in the row's unit) must stay at or below this. */
  value?: number;
}

export interface RatioRow {
  metric: string;
  unit: string;
  reference: string;
  ours: number;
  theirs: number;
  ratio: number;
  range: [number, number];
  rounds: number;
  target?: RatioTarget;
  bench?: string;
}

export declare function ratioRow(options: {
  metric: string;
  unit?: string;
  reference: string;
  ours: number[];
  theirs: number[];
  target?: RatioTarget;
}): RatioRow;
export declare function verdict(row: RatioRow): '' | 'met' | 'MISSED' | '–';
export declare function formatTarget(row: RatioRow): string;
export declare function formatNumber(value: number): string;
export declare function formatRatio(ratio: number): string;
export declare function formatRange(range: [number, number]): string;
export declare function formatRatioTable(rows: RatioRow[], options?: { bench?: boolean }): string;
export declare function printRatios(rows: RatioRow[], heading?: string): void;
