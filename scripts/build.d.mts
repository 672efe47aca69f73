// Types of build.mjs for the TypeScript that imports it (the tests' global setup).
export declare const BUNDLED_PACKAGES: string[];
export declare function buildClient(outdir?: string): Promise<void>;
export declare function buildAll(): Promise<void>;
