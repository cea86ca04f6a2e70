import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { DataProvider } from 'react-admin';

type Caller = {
  call: <T>(request: { method: 'GET'; path: string; query: Record<string, string> }) => Promise<T>;
};

export interface Choice {
  id: number | string;
  name: string;
}

/**
 * Choices of an `x-lookup.source` such as `webtool/lists?type=location_types`: fetched once per
 * session and shared by every list, filter and form that names the same source.
 */
export function useLookupChoices(source: string | undefined): Choice[] {
  const dataProvider = useDataProvider();
  const { data } = useQuery({ ...lookupQuery(dataProvider, source ?? ''), enabled: Boolean(source) });
  return data ?? [];
}

/** The query behind `useLookupChoices`, for code that needs the choices outside rendering (the CSV export). */
export function lookupQuery(dataProvider: DataProvider, source: string) {
  const caller = dataProvider as unknown as Caller;
  return {
    queryKey: ['lookup', source],
    staleTime: Infinity,
    gcTime: Infinity,
    queryFn: async (): Promise<Choice[]> => {
      const url = new URL(source, 'http://lookup.invalid');
      const response = await caller.call<{ data: { column_id: number | string; column_name: string }[] }>({
        method: 'GET',
        path: url.pathname.replace(/^\//, ''),
        query: Object.fromEntries(url.searchParams),
      });
      return response.data.map((item) => ({ id: item.column_id, name: item.column_name }));
    },
  };
}
