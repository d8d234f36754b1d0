export declare const CORPORA: Readonly<Record<string, string>>;
/** The cache folder the corpora are installed into. */
export declare function corporaDir(): string;
/** The folder of one installed corpus package. */
export declare function corpusPath(name: string): string;
/** Installs the pinned corpora (once); 0 when they are there. */
export declare function installCorpora(): number;
