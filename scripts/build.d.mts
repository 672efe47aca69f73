// Types of build.mjs for the TypeScript that imports it (the tests' global setup, the bench).
export declare const BUNDLED_PACKAGES: string[];
export declare function buildClient(outdir?: string): Promise<void>;
export declare function buildAll(options?: { template?: boolean }): Promise<void>;
export declare function buildDataTemplate(): void;
export declare function templateIsStale(): boolean;
