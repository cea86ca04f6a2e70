import { describe, expect, it } from 'vitest';
import { resources } from '../../../src/app/resources.ts';
import { createAjv, hintProblems } from '../../../src/schema/ajv.ts';
import { engineInputKinds, inputKinds, registeredKinds } from '../../../src/schema/kinds.ts';

const projectSchemas = Object.entries(
  import.meta.glob<Record<string, unknown>>('../../../schemas/*.schema.json', { eager: true, import: 'default' }),
).map(([path, schema]) => ({ file: path.replace(/^.*\/schemas\//, 'schemas/'), schema }));

/** Every `x-input` / `x-display` kind of a schema, with its JSON pointer, at any depth. */
function kindsIn(node: unknown, pointer = ''): { pointer: string; kind: string }[] {
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => {
    const at = `${pointer}/${key}`;
    const kind = (value as { kind?: unknown } | null)?.kind;
    if ((key === 'x-input' || key === 'x-display') && typeof kind === 'string') return [{ pointer: at, kind }];
    return kindsIn(value, at);
  });
}

const thing = (properties: object) => ({
  $id: 'thing',
  type: 'object',
  'x-resource': { name: 'things', endpoint: 'things', id: 'thing_id' },
  properties,
});
const file = 'schemas/thing.schema.json';

describe('the closed list of input, display and filter kinds', () => {
  it('has every kind a schema names registered by the resource of that schema', () => {
    const nameOf = (schema: Record<string, unknown>) => (schema['x-resource'] as { name?: string } | undefined)?.name;
    /** A schema's resource, or the resources whose record actions open it as their dialog's form. */
    const ownersOf = (schema: Record<string, unknown>) =>
      nameOf(schema)
        ? [nameOf(schema)]
        : projectSchemas
            .filter(({ schema: owner }) =>
              ((owner['x-record-actions'] as { form?: string }[] | undefined) ?? []).some(
                (action) => action.form === schema.$id,
              ),
            )
            .map(({ schema: owner }) => nameOf(owner));
    const unregistered = projectSchemas.flatMap(({ file, schema }) => {
      const owners = ownersOf(schema);
      return kindsIn(schema)
        .filter(({ kind }) => (registeredKinds as readonly string[]).includes(kind))
        .filter(
          ({ kind }) =>
            !owners.length || owners.some((name) => !resources.find((r) => r.name === name)?.kinds.includes(kind)),
        )
        .map(
          ({ pointer, kind }) =>
            `${file} ${pointer}: "${kind}" is not registered by ${owners.join(', ') || 'any resource'}`,
        );
    });
    expect(unregistered).toEqual([]);
  });

  it('lists each kind a resource registers, and registers each kind it lists', () => {
    const registered = new Set(resources.flatMap((resource) => resource.kinds));
    expect([...registered].filter((kind) => !(registeredKinds as readonly string[]).includes(kind))).toEqual([]);
    expect(registeredKinds.filter((kind) => !registered.has(kind))).toEqual([]);
    expect(engineInputKinds.filter((kind) => registered.has(kind))).toEqual([]);
    expect(new Set(inputKinds).size).toBe(inputKinds.length);
  });

  it('stops npm run gen on an unknown kind, naming the schema, the field and the kind', () => {
    const schema = thing({
      colour: { type: 'string', 'x-input': { kind: 'color', tab: 'basic' } },
      state: { type: 'string', readOnly: true, 'x-display': { kind: 'piece-plaec' } },
      city: { type: 'string', 'x-filter': { kind: 'txet' } },
    });
    expect(hintProblems(schema, file)).toEqual([
      'schemas/thing.schema.json /properties/colour/x-input/kind: unknown kind "color" (the kinds are listed in src/schema/kinds.ts)',
      'schemas/thing.schema.json /properties/state/x-display/kind: unknown kind "piece-plaec" (the kinds are listed in src/schema/kinds.ts)',
      'schemas/thing.schema.json /properties/city/x-filter/kind: unknown kind "txet" (the kinds are listed in src/schema/kinds.ts)',
    ]);
    // The gateway and the app compile the same schemas: an unknown kind never loads.
    expect(() => createAjv().compile(thing({ colour: { type: 'string', 'x-input': { kind: 'color' } } }))).toThrow(
      /x-input/,
    );
    expect(() => createAjv().compile(thing({ city: { type: 'string', 'x-filter': { kind: 'txet' } } }))).toThrow(
      /x-filter/,
    );
  });

  it('keeps x-input for fields the user changes and x-display for readOnly fields shown but never edited', () => {
    const schema = thing({
      api_key: { type: 'string', readOnly: true, 'x-input': { tab: 'basic' } },
      name: { type: 'string', 'x-display': { tab: 'basic' } },
      both: { type: 'string', readOnly: true, 'x-input': { kind: 'photo-gallery' }, 'x-display': { tab: 'basic' } },
      photos: { type: 'array', readOnly: true, 'x-input': { kind: 'photo-gallery', tab: 'photos' } },
      created_at: { type: 'string', readOnly: true, 'x-display': { tab: 'basic', form: false } },
    });
    expect(hintProblems(schema, file)).toEqual([
      'schemas/thing.schema.json /properties/api_key: "x-input" on a readOnly field, shown but never edited: use "x-display"',
      'schemas/thing.schema.json /properties/name: "x-display" on a field that is not readOnly: use "x-input"',
      'schemas/thing.schema.json /properties/both: both "x-input" and "x-display"',
    ]);
    expect(
      hintProblems(thing({ a: { type: 'string', readOnly: true, 'x-display': { multiline: true } } }), file),
    ).toEqual(['schemas/thing.schema.json /properties/a/x-display: unknown key "multiline"']);
  });

  it('takes `when` in one shape only, each field with a list of values', () => {
    const withWhen = (when: unknown) => ({
      ...thing({ status: { type: 'integer' }, kind: { type: 'integer', 'x-input': { when } } }),
      'x-read-only': [{ when, reason: 'read_only.closed' }],
    });
    expect(hintProblems(withWhen({ status: [2, 3] }), file)).toEqual([]);
    expect(hintProblems(withWhen({ status: 2 }), file)).toEqual([
      'schemas/thing.schema.json /properties/kind/x-input/when/status: must be array',
      'schemas/thing.schema.json /x-read-only/0/when/status: must be array',
    ]);
    expect(hintProblems(withWhen({}), file)).toHaveLength(2);
  });
});
