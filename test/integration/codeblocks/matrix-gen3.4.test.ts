import { defineMatrix } from './matrix.ts';

defineMatrix('3.4');
