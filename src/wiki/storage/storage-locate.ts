// Offset → line/column for error messages and macro positions. Line starts are
// computed once per document (lazily) so locating many macros stays O(n + m log n).

export interface TextLocation {
  line: number;
  column: number;
}

/** Returns a function mapping a UTF-16 offset to a 1-based line and column.
 *  CRLF, lone CR and lone LF each end a line, as XML 1.0 treats them. */
export function makeLocator(text: string): (offset: number) => TextLocation {
  let lineStarts: number[] | undefined;
  const build = (): number[] => {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) starts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
    }
    return starts;
  };
  return (offset) => {
    lineStarts ??= build();
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (lineStarts[lo] ?? 0) + 1 };
  };
}
