import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/fieldeditor/options/options-csv.ts';
import { joinPath, splitPath } from '../../src/fieldeditor/options/option-path.ts';
import { csvCell } from '../../src/fieldeditor/options/options-export.format.ts';
import { diffTree } from '../../src/fieldeditor/options/options-sync.diff.ts';
import { CsvForestReader, forestFromCsv } from '../../src/fieldeditor/options/options-sync.csv.ts';
import type { TreeRow } from '../../src/fieldeditor/options/options-tree.repository.ts';
import type { FieldProblem } from '../../src/platform/http/app-error.ts';

// The pure parts of issue 27's export and sync: CSV cells and records, option paths, and the diff.
describe('option paths and CSV cells', () => {
  it('escapes / and \\ in names so that any name survives the round trip', () => {
    const names = ['AC/DC', 'back\\slash', 'plain', 'ends with \\', '/'];
    const path = joinPath(names);
    expect(path).toBe('AC\\/DC/back\\\\slash/plain/ends with \\\\/\\/');
    expect(splitPath(path)).toEqual(names);
    expect(splitPath('a//b')).toBeUndefined();
    expect(splitPath('a/b\\')).toBeUndefined();
  });

  it('quotes cells as RFC 4180 asks and guards formula-like texts with a leading quote', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const start of ['=', '+', '-', '@', '\t', '\r', "'"]) expect(csvCell(`${start}1`)).toBe(`"'${start}1"`);
  });

  it('reads CSV records with quotes, doubled quotes, line breaks in fields, CRLF or LF and a byte order mark', () => {
    const text = '\uFEFFid,path\r\n1,"a, ""b"""\r\n2,"two\nlines"\n\n3,last';
    expect(parseCsv(text)).toEqual({
      records: [
        { line: 1, cells: ['id', 'path'] },
        { line: 2, cells: ['1', 'a, "b"'] },
        { line: 3, cells: ['2', 'two\nlines'] },
        { line: 6, cells: ['3', 'last'] },
      ],
    });
    expect(parseCsv('a,"open\r\n')).toEqual({ error: { line: 1, message: 'a quoted field is not closed' } });
    expect(parseCsv('"x"y,z')).toMatchObject({ error: { line: 1 } });
  });
});

describe('the diff of a sync', () => {
  const row = (id: number, names: string[], seq: number, parent: number | null = null, extra: Partial<TreeRow> = {}): TreeRow => ({
    id, parent_id: parent, value: names.at(-1)!, disabled: false, seq, depth: names.length - 1, names, is_default: false, ...extra,
  });
  const tree = [row(1, ['A'], 0), row(11, ['A', 'x'], 0, 1), row(12, ['A', 'y'], 1, 1), row(2, ['B'], 1), row(3, ['C'], 2), row(4, ['D'], 3)];
  const diff = (csv: string, allowDelete = false) => {
    const problems: FieldProblem[] = [];
    const reader = new CsvForestReader(2, problems);
    reader.push(csv);
    const forest = forestFromCsv(reader.end(), tree, problems);
    const { plan, problems: more } = diffTree(tree, forest, 2, allowDelete);
    return { diff: plan.diff, problems: [...problems, ...more] };
  };

  it('is empty for the tree itself, with or without ids', () => {
    const same = 'id,path\r\n1,A\r\n11,A/x\r\n12,A/y\r\n2,B\r\n3,C\r\n4,D';
    expect(diff(same).diff).toMatchObject({ create: [], rename: [], move: [], disable: [], enable: [], delete: [], unlisted: [] });
    expect(diff('path\r\nA\r\nA/x\r\nA/y\r\nB\r\nC\r\nD').diff).toMatchObject({ create: [], rename: [], move: [] });
    // Names match without regard to case; a name written in another case is that option, renamed.
    expect(diff('path\r\na\r\nA/X\r\nA/y\r\nB\r\nC\r\nD').diff).toMatchObject({ create: [], move: [], rename: [{ id: 1, from: 'A', to: 'a' }, { id: 11, from: 'x', to: 'X' }] });
  });

  it('names only the option that left its order as moved, and keeps unlisted options after the sibling they follow', () => {
    const moved = diff('path\r\nA\r\nA/x\r\nA/y\r\nC\r\nD\r\nB');
    expect(moved.diff.move.map((m) => m.id)).toEqual([2]);
    // B left out (kept): D moved first is the only move; B stays after A, where it was.
    const kept = diff('path\r\nD\r\nA\r\nA/x\r\nA/y\r\nC');
    expect(kept.diff.unlisted.map((u) => u.id)).toEqual([2]);
    expect(kept.diff.move.map((m) => m.id)).toEqual([4]);
  });

  it('moves an option to another parent by its id, and deletes only with allowDelete', () => {
    const { diff: d } = diff('id,path\r\n1,A\r\n11,A/x\r\n2,B\r\n12,B/y\r\n3,C', true);
    expect(d.move).toEqual([{ id: 12, path: 'B/y', fromParentId: 1, toParentId: 2, fromPosition: 1, toPosition: 0 }]);
    expect(d.delete).toEqual([{ id: 4, path: 'D', options: 1 }]);
  });

  it('refuses duplicates among siblings, unknown ids and too deep options, all at once', () => {
    const { problems } = diff('id,path\r\n,A/x2\r\n,A/X2\r\n99,E\r\n,A/x/deep');
    expect(problems.map((p) => p.name).sort()).toEqual(['row 3.path', 'row 4.id', 'row 5.path'].sort());
  });
});
