/** The dataProvider's `GET` opname call (src/dataProvider), as the service point widgets use it. */
export interface OpnameQuery {
  action<T>(
    resource: string,
    method: 'GET',
    opname: string,
    body: undefined,
    query: Record<string, string>,
  ): Promise<T>;
}
