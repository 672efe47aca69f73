#!/usr/bin/env node
// `npx addon-pair …`: run the TypeScript entry point through tsx (a runtime dependency), no build step.
import { register } from 'tsx/esm/api';
register();
await import('../src/main.ts');
