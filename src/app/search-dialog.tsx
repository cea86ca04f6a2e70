import { useCallback, useEffect, useId, useMemo, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Dialog,
  IconButton,
  InputAdornment,
  LinearProgress,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import HistoryIcon from '@mui/icons-material/History';
import CloseIcon from '@mui/icons-material/Close';
import { useNavigate } from 'react-router-dom';
import { HttpError, useResourceDefinitions, useTranslate } from 'react-admin';
import { useGateway } from '../schema/ui/gateway-api.ts';
import type { SearchItem, SearchKind, SearchResponse } from '../contract/search.ts';
import { SEARCH_MAX_LENGTH } from '../contract/search.ts';
import { searchApi } from './search-api.ts';
import { configuredCountry } from '../schema/configured-country.ts';
import { modelOfResource } from '../schema/ui/registry.ts';

/** The search dialog of the app bar's search (global-search.tsx), a chunk of its own loaded on first open. */

const DEBOUNCE_MS = 250;
const RECENT_COUNT = 5;

interface Recent {
  queries: string[];
  records: Pick<SearchItem, 'id' | 'resource' | 'label' | 'route'>[];
}

const storageKey = (user: string) => `webtool.search.recent.${user}`;

function readRecent(user: string): Recent {
  try {
    const stored = JSON.parse(localStorage.getItem(storageKey(user)) ?? '{}') as Partial<Recent>;
    return {
      queries: Array.isArray(stored.queries) ? stored.queries.filter((q) => typeof q === 'string') : [],
      records: Array.isArray(stored.records)
        ? stored.records.filter((r) => r && typeof r.route === 'string' && r.route.startsWith('/'))
        : [],
    };
  } catch {
    return { queries: [], records: [] };
  }
}

function writeRecent(user: string, recent: Recent) {
  try {
    localStorage.setItem(storageKey(user), JSON.stringify(recent));
  } catch {
    // A full or disabled storage only loses the recent list.
  }
}

/** One choice of the listbox: a found record, a recent record, or a recent search. */
type Option = { type: 'record'; item: SearchItem; kind: SearchKind | 'recent' } | { type: 'query'; query: string };

interface OptionGroup {
  key: string;
  label: string;
  options: Option[];
}

/** A result's distinguishing fields as words: choices by their label, booleans as yes/no. */
function useFieldText() {
  const translate = useTranslate();
  return useCallback(
    (item: SearchItem): string =>
      Object.entries(item.fields)
        .map(([source, value]) => {
          const field = modelOfResource(item.resource)?.fields.find((candidate) => candidate.source === source);
          if (source === 'partner_type')
            return translate(`search.partner_types.${String(value)}`, { _: String(value) });
          if (source === 'pickup_code') return translate('search.pickup_code', { code: String(value) });
          if (typeof value === 'boolean') {
            const label = translate(`resources.${item.resource}.fields.${source}`, { _: source });
            return `${label}: ${translate(value ? 'table.yes' : 'table.no')}`;
          }
          if (field?.choices) return translate(`choices.${field.choices}.${String(value)}`, { _: String(value) });
          return String(value);
        })
        .join(' · '),
    [translate],
  );
}

function OptionRow({
  id,
  option,
  active,
  onPick,
  onHover,
  detail,
}: {
  id: string;
  option: Option;
  active: boolean;
  onPick: () => void;
  onHover: () => void;
  detail?: string;
}) {
  return (
    <Box
      id={id}
      role="option"
      aria-selected={active}
      onMouseDown={(event) => event.preventDefault()}
      onClick={onPick}
      onMouseMove={onHover}
      sx={{
        px: 2,
        py: 1,
        cursor: 'pointer',
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        bgcolor: active ? 'action.selected' : undefined,
        borderLeft: 3,
        borderColor: active ? 'primary.main' : 'transparent',
      }}
    >
      {option.type === 'query' && <HistoryIcon fontSize="small" color="action" aria-hidden />}
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
          {option.type === 'query' ? option.query : option.item.label}
        </Typography>
        {detail && (
          <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
            {detail}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

export function SearchDialog({ open, onClose, user }: { open: boolean; onClose: () => void; user: string }) {
  const translate = useTranslate();
  const dataProvider = useGateway();
  const navigate = useNavigate();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const fieldText = useFieldText();
  const definitions = useResourceDefinitions();
  /** The record's page: its edit form, or its read-only view for a resource without one (shipments). */
  const pageOf = (item: Pick<SearchItem, 'resource' | 'id' | 'route'>) => {
    const definition = definitions[item.resource];
    if (!definition || definition.hasEdit || !definition.hasShow) return item.route;
    const own = `/${item.resource}/${encodeURIComponent(String(item.id))}`;
    return item.route.startsWith(own) ? `${own}/show${item.route.slice(own.length)}` : item.route;
  };
  const baseId = useId();
  const listboxId = `${baseId}-listbox`;
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<{ query: string; answer?: SearchResponse; error?: string }>({ query: '' });
  const [cursor, setCursor] = useState({ query: '', index: -1 });
  // The dialog is mounted when it opens: the recent lists are read then.
  const [recent, setRecent] = useState<Recent>(() => readRecent(user));

  const typed = query.trim();
  const tooLong = typed.length > SEARCH_MAX_LENGTH;

  // Debounced: the request waits for a pause in the typing, and a newer query cancels the older request.
  useEffect(() => {
    if (!typed || tooLong) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchApi(dataProvider)
        .search(typed, configuredCountry, controller.signal)
        .then((answer) => {
          if (!controller.signal.aborted) setResult({ query: typed, answer });
        })
        .catch((caught: unknown) => {
          if (controller.signal.aborted) return;
          setResult({
            query: typed,
            error: caught instanceof HttpError || caught instanceof Error ? caught.message : String(caught),
          });
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [typed, tooLong, dataProvider]);

  const current = result.query === typed ? result : undefined;
  const loading = Boolean(typed) && !tooLong && !current;
  // While the next answer loads, the previous one stays in view.
  const answer = typed && !tooLong ? result.answer : undefined;
  const error = current?.error;

  const groups: OptionGroup[] = useMemo(() => {
    if (typed) {
      return (answer?.groups ?? []).map((group) => ({
        key: group.kind,
        label: translate(`search.kinds.${group.kind}`),
        options: group.items.map((item) => ({ type: 'record' as const, item, kind: group.kind })),
      }));
    }
    const shown: OptionGroup[] = [];
    if (recent.queries.length) {
      shown.push({
        key: 'recent-queries',
        label: translate('search.recent_searches'),
        options: recent.queries.map((q) => ({ type: 'query' as const, query: q })),
      });
    }
    if (recent.records.length) {
      shown.push({
        key: 'recent-records',
        label: translate('search.recent_records'),
        options: recent.records.map((item) => ({
          type: 'record' as const,
          item: { ...item, fields: {} },
          kind: 'recent' as const,
        })),
      });
    }
    return shown;
  }, [typed, answer, recent, translate]);

  const options = useMemo(() => groups.flatMap((group) => group.options), [groups]);
  /** Each group's options with their place in the whole listbox. */
  const numbered = useMemo(() => {
    let at = 0;
    return groups.map((group) => ({ ...group, numbered: group.options.map((option) => ({ option, at: at++ })) }));
  }, [groups]);
  const optionId = (index: number) => `${baseId}-option-${index}`;
  // The highlighted option: the first until the user moves, for each query.
  const active = cursor.query === typed && cursor.index < options.length ? cursor.index : options.length ? 0 : -1;
  const setActive = (index: number) => setCursor({ query: typed, index });

  const close = () => {
    setQuery('');
    onClose();
  };

  const pick = (option: Option | undefined) => {
    if (!option) return;
    if (option.type === 'query') {
      setQuery(option.query);
      return;
    }
    const { item } = option;
    const next: Recent = {
      queries: typed ? [typed, ...recent.queries.filter((q) => q !== typed)].slice(0, RECENT_COUNT) : recent.queries,
      records: [
        { id: item.id, resource: item.resource, label: item.label, route: item.route },
        ...recent.records.filter((r) => r.route !== item.route),
      ].slice(0, RECENT_COUNT),
    };
    writeRecent(user, next);
    setRecent(next);
    close();
    navigate(pageOf(item));
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!options.length) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((active + step + options.length) % options.length);
    } else if (event.key === 'Home' && options.length && event.ctrlKey) {
      setActive(0);
    } else if (event.key === 'End' && options.length && event.ctrlKey) {
      setActive(options.length - 1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      pick(options[active >= 0 ? active : 0]);
    }
  };

  const activeId = active >= 0 ? optionId(active) : undefined;
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeId]);

  const expanded = options.length > 0;
  let status: ReactNode = null;
  if (tooLong) status = translate('gateway.search_query_too_long', { max: SEARCH_MAX_LENGTH });
  else if (typed && !loading && answer && !answer.groups.length)
    status = translate('search.no_results', { query: typed });
  else if (!typed && !expanded) status = translate('search.hint');

  return (
    <Dialog
      open={open}
      onClose={close}
      fullScreen={phone}
      fullWidth
      maxWidth="sm"
      sx={{ '& .MuiDialog-container': { alignItems: phone ? 'stretch' : 'flex-start' } }}
      slotProps={{ paper: { 'aria-label': translate('search.title'), sx: phone ? undefined : { mt: 8 } } }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1.5, pb: 1 }}>
        <TextField
          autoFocus
          fullWidth
          size="small"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onKeyDown}
          placeholder={translate('search.placeholder')}
          slotProps={{
            htmlInput: {
              role: 'combobox',
              'aria-label': translate('search.title'),
              'aria-expanded': expanded,
              'aria-controls': listboxId,
              'aria-autocomplete': 'list',
              'aria-activedescendant': activeId,
              autoComplete: 'off',
              spellCheck: false,
              maxLength: SEARCH_MAX_LENGTH + 50,
            },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon aria-hidden />
                </InputAdornment>
              ),
            },
          }}
        />
        <IconButton onClick={close} aria-label={translate('ra.action.close')}>
          <CloseIcon />
        </IconButton>
      </Box>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress aria-hidden />}</Box>
      {error && (
        <Alert severity="error" sx={{ mx: 1.5, mb: 1 }}>
          {error}
        </Alert>
      )}
      <Box
        id={listboxId}
        role="listbox"
        aria-label={translate(typed ? 'search.results' : 'search.recent')}
        sx={{ overflowY: 'auto', maxHeight: phone ? undefined : '60vh', pb: 1 }}
      >
        {numbered.map((group) => (
          <Box key={group.key} role="group" aria-label={group.label}>
            <Typography
              aria-hidden
              variant="overline"
              color="text.secondary"
              sx={{ display: 'block', px: 2, pt: 1, lineHeight: 2 }}
            >
              {group.label}
            </Typography>
            {group.numbered.map(({ option, at }) => {
              return (
                <OptionRow
                  key={`${group.key}-${option.type === 'query' ? option.query : option.item.route}`}
                  id={optionId(at)}
                  option={option}
                  active={at === active}
                  onPick={() => pick(option)}
                  onHover={() => setActive(at)}
                  detail={option.type === 'record' ? fieldText(option.item) || undefined : undefined}
                />
              );
            })}
          </Box>
        ))}
      </Box>
      <Typography role="status" variant="body2" color="text.secondary" sx={{ px: 2, pb: status ? 2 : 0 }}>
        {status}
      </Typography>
    </Dialog>
  );
}
