import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, Button } from '@mui/material';
import {
  useDataProvider,
  useGetIdentity,
  useListContext,
  useRecordContext,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { useGateway } from './gateway-api.ts';
import type { RealtimeEvent } from '../../contract/live.ts';
import { requestReload } from './stale-record.tsx';

/**
 * The screens' side of the live updates (src/dataProvider/live-updates.ts): a list says how many of
 * its records changed and refreshes when asked (rows do not move under the cursor), or refreshes in
 * place; an open edit form says who saved its record meanwhile, before its user saves into a 409.
 */

/** Calls `onEvent` with the events of `topic` while mounted (none when `topic` is undefined). */
export function useLiveTopic(topic: string | undefined, onEvent: (event: RealtimeEvent) => void) {
  const dataProvider = useGateway();
  const latest = useRef(onEvent);
  useEffect(() => {
    latest.current = onEvent;
  });
  useEffect(() => {
    if (!topic) return;
    const callback = (event: RealtimeEvent) => latest.current(event);
    // A data provider without live updates (tests, stand-alone pages) simply sends none.
    Promise.resolve()
      .then(() => dataProvider.subscribe?.(topic, callback))
      .catch(() => undefined);
    return () => {
      Promise.resolve()
        .then(() => dataProvider.unsubscribe?.(topic, callback))
        .catch(() => undefined);
    };
  }, [topic, dataProvider]);
}

/** The signed-in user's own saves come back through the stream too: they are no news to them. */
function useOwnUsername() {
  const { identity } = useGetIdentity();
  return identity?.id === undefined ? undefined : String(identity.id);
}

/** Changed records a list asks the gateway about at once: more, and it just says "Records changed". */
export const LIVE_CHECK_MAX_IDS = 500;
/** Events arriving this close together (one flush of the stream) are checked in one request. */
const CHECK_GATHER_MS = 30;

/**
 * Inside a list: `banner` counts the records changed since the list was read ("3 new or changed
 * records", or "Records changed" when the gateway could not say which) and reads it again on Show;
 * `inPlace` reads it again at once (the alerts).
 *
 * The banner counts only the changes the list would show. A changed record on the page counts (it
 * changed or left the filter). Any other created or updated record counts when it matches the list's
 * current filter: the ids of one burst are asked for in ONE list request (`ids=` with every filter the
 * list sends: equality and list filters, prefixes, dates, the search box, the caller's scope), so the
 * gateway decides exactly as the list's own read would. A record deleted off the page is not counted:
 * the gateway can no longer say whether it matched.
 */
export function LiveListChanges({ mode = 'banner' }: { mode?: 'banner' | 'inPlace' }) {
  const translate = useTranslate();
  const { resource, refetch, filterValues, page, perPage, sort, data } = useListContext();
  const dataProvider = useDataProvider();
  const own = useOwnUsername();
  // Another page, filter or order is read afresh: what changed before is in it (kept per list query).
  const query = JSON.stringify([filterValues, page, perPage, sort]);
  const [noted, setChanged] = useState<{ query: string; ids: ReadonlySet<string>; all: boolean }>({
    query,
    ...NOTHING,
  });
  const changed = noted.query === query ? noted : NOTHING;
  const note = useCallback(
    (ids: string[], all: boolean) => {
      if (!ids.length && !all) return;
      setChanged((before) => {
        const kept = before.query === query ? before : { query, ...NOTHING };
        return { query, ids: new Set([...kept.ids, ...ids]), all: kept.all || all };
      });
    },
    [query],
  );
  // The ids of the page shown, and the ids gathered for the next check (of the current list query).
  const shown = useRef<ReadonlySet<string>>(new Set());
  useEffect(() => {
    shown.current = new Set((data ?? []).map((record) => String(record.id)));
  }, [data]);
  const gathered = useRef<{ query: string; ids: Set<string>; timer?: ReturnType<typeof setTimeout> } | undefined>(
    undefined,
  );
  const currentQuery = useRef(query);
  useEffect(() => {
    currentQuery.current = query;
  }, [query]);
  useEffect(() => () => clearTimeout(gathered.current?.timer), []);
  const check = useCallback(
    (ids: string[]) => {
      const before = gathered.current;
      if (before?.query !== query) clearTimeout(before?.timer);
      const batch = before?.query === query ? before : { query, ids: new Set<string>() };
      for (const id of ids) batch.ids.add(id);
      gathered.current = batch;
      batch.timer ??= setTimeout(() => {
        gathered.current = undefined;
        const asked = [...batch.ids];
        if (!resource) return;
        if (asked.length > LIVE_CHECK_MAX_IDS) return note([], true);
        dataProvider
          .getList(resource, {
            filter: { ...filterValues, ids: asked.join(',') },
            pagination: { page: 1, perPage: asked.length },
            sort: { field: 'id', order: 'ASC' },
          })
          .then(({ data: matching }) => {
            // Answered after the list moved to another filter or page: that one was read afresh.
            if (currentQuery.current === batch.query)
              note(
                matching.map((record) => String(record.id)),
                false,
              );
          })
          .catch(() => undefined);
      }, CHECK_GATHER_MS);
    },
    [query, resource, dataProvider, filterValues, note],
  );
  const onEvent = useCallback(
    (event: RealtimeEvent) => {
      if (event.meta?.by !== undefined && event.meta.by === own) return;
      if (mode === 'inPlace') {
        void refetch();
        return;
      }
      const ids = event.payload.ids.map(String);
      const onPage = ids.filter((id) => shown.current.has(id));
      note(onPage, Boolean(event.meta?.all));
      const elsewhere = event.type === 'deleted' ? [] : ids.filter((id) => !shown.current.has(id));
      if (elsewhere.length) check(elsewhere);
    },
    [mode, own, refetch, note, check],
  );
  useLiveTopic(resource ? `resource/${resource}` : undefined, onEvent);

  const count = changed.ids.size;
  if (mode === 'inPlace' || (!count && !changed.all)) return null;
  return (
    <Alert
      severity="info"
      role="status"
      sx={{ mx: { xs: 1, sm: 2 }, my: 1 }}
      action={
        <Button
          color="inherit"
          size="small"
          onClick={() => {
            setChanged({ query, ...NOTHING });
            void refetch();
          }}
        >
          {translate('live.show')}
        </Button>
      }
    >
      {count ? translate('live.list_changes', { smart_count: count }) : translate('live.list_changed')}
    </Alert>
  );
}

const NOTHING = { ids: new Set<string>(), all: false };

/**
 * In an edit form: another user saved (or deleted) the record since the form read it. Says who, when
 * the gateway may say, and offers to reload; the user's own saves and the parts of a record (its
 * compartments) say nothing. After a reconnection the record's version is read again quietly.
 */
export function LiveEditNotice() {
  const translate = useTranslate();
  const record = useRecordContext();
  const resource = useResourceContext();
  const dataProvider = useDataProvider();
  const own = useOwnUsername();
  const version = typeof record?.version === 'number' ? record.version : undefined;
  // Noted against the version the form shows: reloaded (or saved) at a newer one, it has been answered.
  const [noted, setNotice] = useState<{ version?: number; deleted: boolean; by?: string }>();
  const notice = noted && noted.version === version ? noted : undefined;
  const id = record?.id;
  const onEvent = useCallback(
    (event: RealtimeEvent) => {
      if (id === undefined || event.meta?.part) return;
      if (event.meta?.by !== undefined && event.meta.by === own) return;
      if (event.type === 'deleted') return setNotice({ version, deleted: true, by: event.meta?.by });
      if (event.meta?.resync || event.meta?.all) {
        // The stream was away or cannot say which record: compare the stored version.
        dataProvider
          .getOne(resource!, { id })
          .then(({ data }) => {
            if (version !== undefined && typeof data.version === 'number' && data.version > version) {
              setNotice({ version, deleted: false });
            }
          })
          .catch(() => undefined);
        return;
      }
      const saved = event.meta?.versions?.[String(id)];
      if (saved === undefined || (version !== undefined && saved <= version)) return;
      setNotice({ version, deleted: false, by: event.meta?.by });
    },
    [id, own, version, dataProvider, resource],
  );
  useLiveTopic(resource && id !== undefined ? `resource/${resource}/${id}` : undefined, onEvent);

  if (!notice) return null;
  const key = notice.deleted ? 'live.deleted' : 'live.saved';
  return (
    <Alert
      severity="warning"
      role="alert"
      // Kept in sight while the form scrolls, above the toolbar (fixed at the bottom on a phone).
      sx={{
        mb: 1,
        position: { xs: 'fixed', sm: 'sticky' },
        left: { xs: 8, sm: 'auto' },
        right: { xs: 8, sm: 'auto' },
        bottom: { xs: 76, sm: 8 },
        zIndex: 2,
      }}
      action={
        notice.deleted ? undefined : (
          <Button color="inherit" size="small" onClick={requestReload}>
            {translate('live.see_changes')}
          </Button>
        )
      }
    >
      {notice.by ? translate(`${key}_by`, { name: notice.by }) : translate(`${key}_by_someone`)}
    </Alert>
  );
}
