import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  List,
  ListItem,
  Switch,
} from '@mui/material';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import { useNotify, useTranslate } from 'react-admin';
import { useProfile } from '../../schema/ui/profile.ts';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { features } from '../../schema/features.ts';
import { accessLevel, type PermissionSet } from '../../schema/permissions.ts';
import { TICKET_OPTIONS, ticketOption } from '../../schema/ticket-options.ts';

interface Provider {
  maintenance_provider_id: number;
  name: string;
  periodic_tickets?: boolean;
  version: number;
}

const PATH = 'webtool/partners/maintenance_provider';
/** `action_type` of update_mps_periodic_tickets (server/gateway/rules/partners/maintenance-providers.ts). */
const SWITCH_ON = 1;
const SWITCH_OFF = 2;

/**
 * Who may switch: a user whose tickets policy has the periodic ticket option (spec 01 §6; the gateway
 * refuses anyone else), with the advance level of maintenance providers, in the operator company or the
 * provider itself.
 */
export function maySwitchPeriodicTickets(
  profile: { partnerType: string; superAdmin: boolean; permissions: PermissionSet } | undefined,
) {
  if (!profile?.permissions || !ticketOption(profile.permissions, TICKET_OPTIONS.periodic)) return false;
  if (profile.superAdmin) return true;
  return (
    ['operator', 'maintenance_provider'].includes(profile.partnerType) &&
    accessLevel(profile.permissions, features.maintenance_providers) === 'advance'
  );
}

function useMaySwitch() {
  const profile = useProfile();
  return maySwitchPeriodicTickets(profile);
}

/**
 * The periodic service tickets switch of each maintenance provider (spec 02 §7,
 * `PATCH partners/maintenance_provider update_mps_periodic_tickets {mp_id, action_type}`), from the
 * tickets list until the maintenance providers have their own screen: the operator company sees every
 * provider, a maintenance provider its own. While on, a closed periodic service ticket brings the next.
 */
export function PeriodicTicketsButton() {
  const translate = useTranslate();
  const maySwitch = useMaySwitch();
  const [open, setOpen] = useState(false);
  if (!maySwitch) return null;
  return (
    <>
      <Button size="small" startIcon={<EventRepeatIcon />} onClick={() => setOpen(true)}>
        {translate('periodic_tickets.open')}
      </Button>
      {open && <PeriodicTicketsDialog close={() => setOpen(false)} />}
    </>
  );
}

function PeriodicTicketsDialog({ close }: { close: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useGateway();
  const queryClient = useQueryClient();
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState<number>();
  const key = ['periodic-tickets-providers'];
  const { data, isPending } = useQuery({
    queryKey: key,
    queryFn: () =>
      dataProvider.call<{ data: Provider[] }>({ method: 'GET', path: PATH, query: { offset: '0', limit: '300' } }),
  });
  const toggle = async (provider: Provider) => {
    setRefusal(undefined);
    setBusy(provider.maintenance_provider_id);
    try {
      await dataProvider.call({
        method: 'PATCH',
        path: PATH,
        body: {
          opname: 'update_mps_periodic_tickets',
          mp_id: provider.maintenance_provider_id,
          action_type: provider.periodic_tickets ? SWITCH_OFF : SWITCH_ON,
          version: provider.version,
        },
      });
      notify(provider.periodic_tickets ? 'periodic_tickets.done_off' : 'periodic_tickets.done_on', {
        type: 'success',
        messageArgs: { name: provider.name },
      });
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (error) {
      setRefusal((error as Error).message);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <Dialog open onClose={close} fullWidth maxWidth="xs" aria-labelledby="periodic-tickets-title">
      <DialogTitle id="periodic-tickets-title">{translate('periodic_tickets.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('periodic_tickets.explain')}</DialogContentText>
        {refusal && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {refusal}
          </Alert>
        )}
        <List dense>
          {isPending && <ListItem>{translate('ra.page.loading')}</ListItem>}
          {(data?.data ?? []).map((provider) => (
            <ListItem key={provider.maintenance_provider_id}>
              <FormControlLabel
                control={
                  <Switch
                    checked={Boolean(provider.periodic_tickets)}
                    disabled={busy !== undefined}
                    onChange={() => void toggle(provider)}
                  />
                }
                label={provider.name}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate('ra.action.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
