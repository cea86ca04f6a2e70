import AddIcon from '@mui/icons-material/Add';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { useCanAccess, useGetList, useGetMany, useRecordContext, useTranslate } from 'react-admin';
import { StatusBadge } from '../../schema/ui/status-badge.tsx';
import { modelOfResource } from '../../schema/ui/registry.ts';

interface Proposal {
  id: number;
  proposal_id: number;
  name: string;
  status: number;
  priority?: number;
  installation_deadline?: string | null;
  service_point_id?: number;
}

/** The proposal's status badge as its schema colours it (`x-badge`), the same as in its own pages. */
const statusField = modelOfResource('location-proposals')?.fields.find((field) => field.source === 'status');

/**
 * The location's proposals: each opens on its own page (pictures, map, "Use as service point"); a new
 * one starts with the location (and its country) filled in.
 */
export function ProposalsPanel() {
  const translate = useTranslate();
  const location = useRecordContext<{ id: number; location_id: number; country?: string }>();
  const { canAccess: mayCreate } = useCanAccess({ resource: 'location-proposals', action: 'create' });
  const {
    data = [],
    isPending,
    error,
  } = useGetList<Proposal>(
    'location-proposals',
    {
      filter: { location_id: location?.location_id },
      pagination: { page: 1, perPage: 100 },
      sort: { field: 'proposal_id', order: 'ASC' },
    },
    { enabled: location !== undefined },
  );
  const servicePointIds = data.flatMap((proposal) => (proposal.service_point_id ? [proposal.service_point_id] : []));
  const { data: servicePoints = [] } = useGetMany<{ id: number; name: string }>(
    'service-points',
    { ids: servicePointIds },
    { enabled: servicePointIds.length > 0 },
  );
  if (!location) return null;
  const source = encodeURIComponent(JSON.stringify({ location_id: location.location_id, country: location.country }));
  const field = (name: string) => translate(`resources.location-proposals.fields.${name}`);
  return (
    <Box sx={{ width: '100%', overflowX: 'auto' }}>
      {mayCreate && (
        <Button
          component={RouterLink}
          to={`/location-proposals/create?source=${source}`}
          startIcon={<AddIcon />}
          sx={{ mb: 1 }}
        >
          {translate('location_proposals.actions.add')}
        </Button>
      )}
      {isPending && <LinearProgress />}
      {error && <Alert severity="error">{translate('ra.notification.http_error')}</Alert>}
      {!isPending && !data.length && (
        <Typography color="text.secondary">{translate('location_proposals.none')}</Typography>
      )}
      {data.length > 0 && (
        <Table size="small" aria-label={translate('resources.locations.tabs.proposals')}>
          <TableHead>
            <TableRow>
              <TableCell>{field('name')}</TableCell>
              <TableCell>{field('status')}</TableCell>
              <TableCell>{field('priority')}</TableCell>
              <TableCell>{field('installation_deadline')}</TableCell>
              <TableCell>{field('service_point_id')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((proposal) => {
              const servicePoint = servicePoints.find((point) => point.id === proposal.service_point_id);
              return (
                <TableRow key={proposal.id}>
                  <TableCell>
                    <Link component={RouterLink} to={`/location-proposals/${proposal.id}`}>
                      LM{location.location_id}_{proposal.proposal_id} · {proposal.name}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <StatusBadge
                      label={translate(`choices.proposal_status.${proposal.status}`)}
                      color={statusField?.badge?.colors[String(proposal.status)] ?? 'default'}
                    />
                  </TableCell>
                  <TableCell>
                    {proposal.priority ? translate(`choices.proposal_priority.${proposal.priority}`) : '-'}
                  </TableCell>
                  <TableCell>{proposal.installation_deadline ?? '-'}</TableCell>
                  <TableCell>
                    {proposal.service_point_id ? (
                      <Link component={RouterLink} to={`/service-points/${proposal.service_point_id}`}>
                        {servicePoint?.name ?? translate('location_proposals.actions.open_service_point')}
                      </Link>
                    ) : (
                      '-'
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
