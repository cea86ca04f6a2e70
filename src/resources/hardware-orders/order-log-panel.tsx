import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { HttpError, useCanAccess, useGetList, useLocaleState, useRecordContext, useTranslate } from 'react-admin';
import type { TabPanelProps } from '../../schema/ui/tab-panels.tsx';
import { ChangeLine } from '../../schema/ui/record-history.tsx';
import { fieldOf } from '../../schema/ui/field-words.tsx';
import { FixedPager } from '../../schema/ui/local-pages.tsx';
import { modelOf } from '../../schema/ui/registry.ts';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { dateTexts } from '../../schema/dates.ts';
import type { FieldErrors } from '../../contract/errors.ts';

const PAGE_SIZE = 20;
const SUB_ORDERS = 'production-orders';
const COMMENT_MAX = 500;

interface OrderLogEntry {
  id: number;
  at: string;
  username: string | null;
  partner_type: string | null;
  action: string;
  sub_order_id: number | null;
  changes: Record<string, { from: unknown; to: unknown }>;
}

/**
 * An order's log (issue 27.3): every change of the order and of its sub orders, newest first, who made it,
 * when, and each field from what to what in words; the comments people added, and a box to add one about
 * the order or one of its sub orders.
 */
export function OrderLogPanel({ model }: TabPanelProps) {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const calls = useGateway();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(0);
  const [about, setAbout] = useState('');
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const { canAccess: mayComment } = useCanAccess({ resource: model.name, action: 'edit' });
  const orderId = record?.id;
  const subModel = modelOf('sub-order');
  const { data: subOrders = [] } = useGetList(
    SUB_ORDERS,
    {
      filter: { order_id: orderId },
      pagination: { page: 1, perPage: 500 },
      sort: { field: 'sub_order_id', order: 'ASC' },
    },
    { enabled: orderId !== undefined },
  );
  const queryKey = [model.name, 'order_logs', orderId, about, page];
  const { data, isPending, isError } = useQuery({
    queryKey,
    enabled: orderId !== undefined,
    queryFn: () =>
      calls.action<{ data: OrderLogEntry[]; total: number }>(model.name, 'GET', 'order_logs', undefined, {
        order_id: String(orderId),
        ...(about && { sub_order_id: about }),
        offset: page * PAGE_SIZE,
        limit: PAGE_SIZE,
      }),
  });
  if (!record) return null;
  const dates = dateTexts(locale);
  const subOrderName = (id: number) => translate('order_log.sub_order', { id });

  const addComment = async () => {
    setSaving(true);
    setError(undefined);
    try {
      await calls.action(model.name, 'POST', 'add_comment', {
        order_id: orderId,
        ...(about && { sub_order_id: Number(about) }),
        comment,
      });
      setComment('');
      setPage(0);
      await queryClient.invalidateQueries({ queryKey: [model.name, 'order_logs', orderId] });
    } catch (caught) {
      const errors = caught instanceof HttpError ? (caught.body as { errors?: FieldErrors })?.errors : undefined;
      const first = errors?.comment;
      setError(first ? translate(first.message, first.args) : (caught as Error).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box sx={{ width: '100%' }}>
      <Stack spacing={2} sx={{ mb: 2 }}>
        <TextField
          select
          size="small"
          label={translate('order_log.about')}
          value={about}
          onChange={(event) => {
            setAbout(event.target.value);
            setPage(0);
          }}
          sx={{ width: { xs: '100%', sm: 280 } }}
        >
          <MenuItem value="">{translate('order_log.whole_order')}</MenuItem>
          {subOrders.map((sub) => (
            <MenuItem key={String(sub.id)} value={String(sub.id)}>
              {subOrderName(Number(sub.id))}
            </MenuItem>
          ))}
        </TextField>
        {mayComment && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'flex-start' }}>
            <TextField
              multiline
              minRows={2}
              size="small"
              label={translate('order_log.comment')}
              value={comment}
              onChange={(event) => setComment(event.target.value)}
              error={error !== undefined}
              helperText={error ?? `${comment.length} / ${COMMENT_MAX}`}
              slotProps={{ htmlInput: { maxLength: COMMENT_MAX } }}
              sx={{ flex: 1 }}
            />
            <Button variant="contained" disabled={saving || !comment.trim()} onClick={() => void addComment()}>
              {translate('order_log.add_comment')}
            </Button>
          </Stack>
        )}
      </Stack>
      {isError && <Alert severity="error">{translate('history.failed')}</Alert>}
      {isPending && !isError && <Typography>{translate('ra.page.loading')}</Typography>}
      {data && !data.data.length && <Typography>{translate('history.empty')}</Typography>}
      {data && data.data.length > 0 && (
        <>
          <Table size="small" aria-label={translate('resources.hardware-orders.tabs.order_log')}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('history.at')}</TableCell>
                <TableCell>{translate('history.user')}</TableCell>
                <TableCell>{translate('order_log.what')}</TableCell>
                <TableCell>{translate('history.changes')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.data.map((entry) => {
                const entryModel = entry.sub_order_id === null ? model : subModel;
                return (
                  <TableRow key={entry.id}>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{dates.dateTime(entry.at)}</TableCell>
                    <TableCell>{entry.username ?? '—'}</TableCell>
                    <TableCell>
                      {translate(`history.actions.${entry.action}`, { _: entry.action })}
                      <Typography variant="caption" display="block" color="text.secondary">
                        {entry.sub_order_id === null
                          ? translate('order_log.the_order')
                          : subOrderName(entry.sub_order_id)}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      {entry.action === 'comment' ? (
                        <Typography component="blockquote" sx={{ m: 0, whiteSpace: 'pre-wrap' }}>
                          {String(entry.changes.comment?.to ?? '')}
                        </Typography>
                      ) : (
                        <Box component="ul" sx={{ m: 0, pl: 2 }}>
                          {Object.entries(entry.changes).map(([field, change]) => (
                            <ChangeLine
                              key={field}
                              label={translate(`resources.${entryModel.name}.fields.${field}`, { _: field })}
                              change={change}
                              field={fieldOf(entryModel, field)}
                              resource={entryModel.name}
                            />
                          ))}
                        </Box>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          <FixedPager count={data.total} page={page} size={PAGE_SIZE} onPage={setPage} />
        </>
      )}
    </Box>
  );
}
