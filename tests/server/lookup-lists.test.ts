import { describe, expect, it } from 'vitest';
import { RECORD_LOOKUPS } from '../../server/gateway/lists.ts';
import { loadResources } from '../../server/gateway/resource-registry.ts';

/*
 * A lookup list of records (a service point's location owner, a ticket's maintenance provider) is
 * read by the gateway from the resource the schema says names it (`x-resource.lookupLists`), and the
 * app links the names to that resource's records: both sides must mean the same records.
 */
describe('lookup lists of records', () => {
  const resources = [...loadResources().values()];
  const declaring = (list: string) => resources.filter((resource) => resource.lookupLists.includes(list));

  it('every list the gateway reads from records is declared by exactly the schema of those records', () => {
    for (const [list, lookup] of Object.entries(RECORD_LOOKUPS)) {
      const owners = declaring(list);
      expect(
        owners.map((resource) => resource.name),
        list,
      ).toHaveLength(1);
      const [resource] = owners;
      expect({ list, endpoint: resource.endpoint, id: resource.id, name: resource.representation }).toEqual({
        list,
        endpoint: lookup.resource,
        id: lookup.id,
        name: lookup.name,
      });
    }
  });

  it('no schema declares a list the gateway does not read from its records', () => {
    const declared = resources.flatMap((resource) => resource.lookupLists);
    expect(declared.filter((list) => !Object.hasOwn(RECORD_LOOKUPS, list))).toEqual([]);
  });
});
