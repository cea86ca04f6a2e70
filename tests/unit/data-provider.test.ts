import { describe, expect, it, vi } from 'vitest';
import { HttpError } from 'react-admin';
import { createGatewayClient } from '../../src/dataProvider/gateway-client.ts';
import { createDataProvider } from '../../src/dataProvider/data-provider.ts';

interface Seen {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: unknown;
}

function setup(reply: (seen: Seen) => { status?: number; body?: unknown }, credentials = true) {
  const seen: Seen[] = [];
  const fetchImpl = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
    const request: Seen = {
      url: new URL(String(url)),
      method: init?.method ?? 'GET',
      headers: init?.headers as Record<string, string>,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    seen.push(request);
    const { status = 200, body } = reply(request);
    return new Response(body === undefined ? '' : JSON.stringify(body), { status });
  });
  const call = createGatewayClient({
    apiBase: 'http://localhost:8080',
    fetchImpl: fetchImpl as unknown as typeof fetch,
    replaceLoma: false,
    version: '3.7.2',
    translate: (key, args) => (args ? `${key} ${JSON.stringify(args)}` : key),
    session: async () => ({
      region: 'eu-west-1',
      idToken: 'id.token.x',
      accessToken: 'access.token.y',
      credentials: credentials ? { accessKeyId: 'AKID', secretAccessKey: 'secret', sessionToken: 'st' } : undefined,
    }),
  });
  const onListError = vi.fn();
  const provider = createDataProvider(call, {
    resources: {
      carriers: { endpoint: 'partners/carrier', id: 'carrier_id' },
      loma: { endpoint: 'loma', id: 'sp_id' },
      tickets: {
        endpoint: 'maintenance/tickets',
        id: 'ticket_id',
        bulkUpdate: { opname: 'quick_actions', ids: 'ticket_ids' },
      },
      hardware: {
        endpoint: 'service_points/hardware_units',
        id: 'hardware_id',
        deleteSends: { partner_id: 'hardware_owner_id' },
      },
    },
    onListError,
  });
  return { provider, seen, onListError };
}

describe('dataProvider', () => {
  it('getList sends offset, limit, search, order and filters, signed with the id token', async () => {
    const { provider, seen } = setup(() => ({ body: { data: [{ carrier_id: 7, name: 'NordPost' }], total: 41 } }));
    const result = await provider.getList('carriers', {
      pagination: { page: 3, perPage: 20 },
      sort: { field: 'name', order: 'DESC' },
      filter: { q: 'nord post', active: true },
    });
    expect(result).toEqual({ data: [{ id: 7, carrier_id: 7, name: 'NordPost' }], total: 41 });
    const { url, headers } = seen[0];
    expect(url.pathname).toBe('/webtool/partners/carrier');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      offset: '40',
      limit: '20',
      search: 'nord post',
      order_by: 'name',
      order_by_dir: 'desc',
      active: 'true',
    });
    expect(url.search).toContain('search=nord%20post');
    expect(headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-west-1\/execute-api\/aws4_request/,
    );
    expect(headers['x-auth-token']).toBe('id.token.x');
    expect(headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
  });

  it('sorting by id sorts by the id field', async () => {
    const { provider, seen } = setup(() => ({ body: { data: [], total: 0 } }));
    await provider.getList('carriers', {
      pagination: { page: 1, perPage: 500 },
      sort: { field: 'id', order: 'ASC' },
      filter: {},
    });
    expect(seen[0].url.searchParams.get('order_by')).toBe('carrier_id');
  });

  it('single sign-on sends "<access>,<id>" without a signature', async () => {
    const { provider, seen } = setup(() => ({ body: { data: [], total: 0 } }), false);
    await provider.getList('carriers', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(seen[0].headers.authorization).toBe('access.token.y,id.token.x');
    expect(seen[0].headers['x-auth-token']).toBe('id.token.x');
  });

  it('adds x-wt-version on loma calls', async () => {
    const { provider, seen } = setup(() => ({ body: { data: [], total: 0 } }));
    await provider.getList('loma', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'sp_id', order: 'ASC' },
      filter: {},
    });
    expect(seen[0].headers['x-wt-version']).toBe('3.7.2');
  });

  it('a failed list call yields an empty list and a message', async () => {
    const { provider, onListError } = setup(() => ({ status: 500, body: { message: 'Database down' } }));
    const result = await provider.getList('carriers', {
      pagination: { page: 1, perPage: 10 },
      sort: { field: 'name', order: 'ASC' },
      filter: {},
    });
    expect(result).toEqual({ data: [], total: 0 });
    expect(onListError).toHaveBeenCalledWith('Database down');
  });

  it('a 401 is not swallowed: it reaches the auth provider', async () => {
    const { provider } = setup(() => ({ status: 401, body: { message: 'Login is expired.' } }));
    await expect(
      provider.getList('carriers', {
        pagination: { page: 1, perPage: 10 },
        sort: { field: 'name', order: 'ASC' },
        filter: {},
      }),
    ).rejects.toMatchObject({ status: 401, message: 'http.need_to_login' });
  });

  it('getOne filters by the id field and fails cleanly when nothing is found', async () => {
    const { provider, seen } = setup((s) => ({
      body:
        s.url.searchParams.get('carrier_id') === '7' ? { data: [{ carrier_id: 7 }], total: 1 } : { data: [], total: 0 },
    }));
    expect((await provider.getOne('carriers', { id: 7 })).data).toEqual({ id: 7, carrier_id: 7 });
    expect(seen[0].url.searchParams.get('limit')).toBe('1');
    await expect(provider.getOne('carriers', { id: 8 })).rejects.toMatchObject({ status: 404 });
  });

  it('create POSTs without the react-admin id; update PATCHes with the id field and the version it was based on', async () => {
    const { provider, seen } = setup((s) => ({ body: { data: { ...(s.body as object), carrier_id: 9, version: 2 } } }));
    const created = await provider.create('carriers', { data: { id: 'x', name: 'New' } });
    expect(seen[0]).toMatchObject({ method: 'POST', body: { name: 'New' } });
    expect(created.data.id).toBe(9);
    await provider.update('carriers', { id: 9, data: { id: 9, name: 'Renamed' }, previousData: { id: 9, version: 1 } });
    expect(seen[1]).toMatchObject({ method: 'PATCH', body: { carrier_id: 9, name: 'Renamed', version: 1 } });
  });

  it('delete sends the id field and the version', async () => {
    const { provider, seen } = setup(() => ({ body: { success: true } }));
    await provider.delete('carriers', { id: 9, previousData: { id: 9, version: 4 } });
    expect(seen[0]).toMatchObject({ method: 'DELETE', body: { carrier_id: 9, version: 4 } });
  });

  it('delete also sends the record fields the resource names (x-resource.deleteSends), under their names', async () => {
    const { provider, seen } = setup(() => ({ body: { success: true } }));
    await provider.delete('hardware', { id: 3, previousData: { id: 3, hardware_owner_id: 2, version: 5 } });
    expect(seen[0].url.pathname).toBe('/webtool/service_points/hardware_units');
    expect(seen[0]).toMatchObject({ method: 'DELETE', body: { hardware_id: 3, partner_id: 2, version: 5 } });
  });

  it('a 422 puts each field error under its input, keeping translation args', async () => {
    const { provider } = setup(() => ({
      status: 422,
      body: {
        message: 'validation.save_failed',
        errors: { service_point_radius: { message: 'validation.max', args: { max: 20 } } },
      },
    }));
    const failure = (await provider.create('carriers', { data: { name: 'x' } }).catch((e) => e)) as HttpError;
    expect(failure.status).toBe(422);
    expect(failure.body.errors.service_point_radius).toBe(
      '@@react-admin@@{"message":"validation.max","args":{"max":20}}',
    );
  });

  it('a network failure is "<context>: Oops server error"', async () => {
    const { provider } = setup(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(provider.create('carriers', { data: {} })).rejects.toMatchObject({
      message: 'http.server_error {"context":"partners/carrier"}',
    });
  });

  it('opname actions go to the resource path with the opname', async () => {
    const { provider, seen } = setup(() => ({ body: { success: true } }));
    await provider.action('carriers', 'PATCH', 'update_carrier_expiry_settings', { carrier_id: 1 });
    await provider.action('carriers', 'GET', 'pdf', undefined, { carrier_id: 1 });
    expect(seen[0].body).toEqual({ carrier_id: 1, opname: 'update_carrier_expiry_settings' });
    expect(seen[1].url.searchParams.get('opname')).toBe('pdf');
  });

  it('put uploads to a record and deleteOpname removes a part of it, both giving the updated record', async () => {
    const { provider, seen } = setup((s) => ({
      body: { data: { carrier_id: 9, version: s.method === 'PUT' ? 3 : 4, name: 'NordPost' } },
    }));
    const file = { file_name: 'logo.svg', content_type: 'image/svg+xml', data: 'PHN2Zy8+' };
    const uploaded = await provider.put('carriers', { id: 9, data: file });
    expect(seen[0]).toMatchObject({ method: 'PUT', body: { ...file, carrier_id: 9 } });
    expect(seen[0].url.pathname).toBe('/webtool/partners/carrier');
    expect(seen[0].headers.authorization).toMatch(/^AWS4-HMAC-SHA256 /);
    expect(uploaded.data).toMatchObject({ id: 9, version: 3 });
    const removed = await provider.deleteOpname('carriers', { id: 9, opname: 'logo' });
    expect(seen[1]).toMatchObject({ method: 'DELETE', body: { opname: 'logo', carrier_id: 9 } });
    expect(removed.data).toMatchObject({ id: 9, version: 4 });
  });

  it('a refused upload carries the catalogue message', async () => {
    const { provider } = setup(() => ({
      status: 413,
      body: { success: false, message: 'File is too large', message_key: 'catalogue.file_too_large' },
    }));
    await expect(provider.put('carriers', { id: 9, data: {} })).rejects.toMatchObject({
      status: 413,
      message: 'catalogue.file_too_large',
    });
  });

  it('unknown resources fail loudly', async () => {
    const { provider } = setup(() => ({ body: {} }));
    await expect(provider.getOne('nope', { id: 1 })).rejects.toThrow('Unknown resource: nope');
  });
  it('getMany asks for all the ids in one ids= call and answers in the order asked, leaving out what is missing', async () => {
    const { provider, seen } = setup(() => ({
      body: {
        data: [
          { carrier_id: 9, name: 'B' },
          { carrier_id: 3, name: 'A' },
        ],
        total: 2,
      },
    }));
    const { data } = await provider.getMany('carriers', { ids: [3, 9, 3, 12] });
    expect(seen).toHaveLength(1);
    expect(Object.fromEntries(seen[0].url.searchParams)).toEqual({ offset: '0', limit: '3', ids: '3,9,12' });
    expect(data.map((record) => record.id)).toEqual([3, 9]);
  });

  it('getMany splits more than 1,000 ids into calls of at most 1,000', async () => {
    const { provider, seen } = setup(() => ({ body: { data: [], total: 0 } }));
    await provider.getMany('carriers', { ids: Array.from({ length: 2500 }, (_, index) => index + 1) });
    expect(seen.map((request) => request.url.searchParams.get('limit'))).toEqual(['1000', '1000', '500']);
    expect(seen[2].url.searchParams.get('ids')?.split(',')[0]).toBe('2001');
  });

  it('getMany shows a reference the caller may not read as missing, without a message, but passes a 401 on', async () => {
    const refused = setup(() => ({ status: 403, body: { message: 'You have no permission for this request.' } }));
    await expect(refused.provider.getMany('carriers', { ids: [1] })).resolves.toEqual({ data: [] });
    expect(refused.onListError).not.toHaveBeenCalled();
    const expired = setup(() => ({ status: 401, body: { message: 'Unauthorized' } }));
    await expect(expired.provider.getMany('carriers', { ids: [1] })).rejects.toMatchObject({ status: 401 });
  });

  it('a cancelled read is passed on as an abort, not shown as a failed list', async () => {
    const { provider, onListError } = setup(() => ({ body: { data: [], total: 0 } }));
    expect(provider.supportAbortSignal).toBe(true);
    const controller = new AbortController();
    controller.abort();
    const page = { pagination: { page: 1, perPage: 20 }, sort: { field: 'name', order: 'ASC' }, filter: {} } as const;
    await expect(provider.getList('carriers', { ...page, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(provider.getMany('carriers', { ids: [1], signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(onListError).not.toHaveBeenCalled();
  });

  it('updateMany is one PATCH with the bulk opname where the resource has one, else one save per record', async () => {
    const { provider, seen } = setup(() => ({ body: { success: true } }));
    await provider.updateMany('tickets', { ids: [4, 5], data: { id: 4, deadline_date: '2030-01-02' } });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'PATCH',
      body: { opname: 'quick_actions', ticket_ids: [4, 5], deadline_date: '2030-01-02' },
    });
    expect(seen[0].url.pathname).toBe('/webtool/maintenance/tickets');
    await provider.updateMany('carriers', { ids: [1, 2], data: { active: false } });
    expect(seen.slice(1).map((request) => request.body)).toEqual([
      { active: false, carrier_id: 1 },
      { active: false, carrier_id: 2 },
    ]);
  });
});
