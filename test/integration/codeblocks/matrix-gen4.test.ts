import { defineMatrix } from './matrix.ts';

defineMatrix('4');
