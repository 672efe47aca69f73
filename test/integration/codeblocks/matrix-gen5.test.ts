import { defineMatrix } from './matrix.ts';

defineMatrix('5');
