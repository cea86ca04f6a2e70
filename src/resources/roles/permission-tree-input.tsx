import { useQuery } from '@tanstack/react-query';
import {
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { useInput, useRecordContext, useTranslate } from 'react-admin';
import { useGateway } from '../../schema/ui/gateway-api.ts';
import type { Policy } from '../../schema/permissions.ts';
import type { InputKindProps, ValueKindProps } from '../../schema/ui/input-kinds.tsx';

export interface PermissionNode {
  feature_name: string;
  parent_id: number | null;
  options: { level: 'basic' | 'advance' | 'scout'; feature_id: number }[];
}

/** The level a role holds for one feature: the granted option, if any. */
function chosen(node: PermissionNode, policies: Policy[]): string {
  const granted = new Set(policies.filter((p) => p.has_permission).map((p) => p.feature_id));
  return node.options.find((option) => granted.has(option.feature_id))?.level ?? 'none';
}

/** Replaces a feature's options in the policies with the one chosen: siblings are exclusive. */
export function choose(node: PermissionNode, policies: Policy[], level: string): Policy[] {
  const ids = new Set(node.options.map((option) => option.feature_id));
  const kept = policies.filter((policy) => !ids.has(policy.feature_id));
  const option = node.options.find((o) => o.level === level);
  return option ? [...kept, { feature_id: option.feature_id, has_permission: true, configurations: [] }] : kept;
}

/** The features a role can be granted, as the gateway names them, fetched once. */
function usePermissionTree(): PermissionNode[] {
  const dataProvider = useGateway();
  const { data: tree = [] } = useQuery({
    queryKey: ['permission-tree'],
    queryFn: async () =>
      (
        await dataProvider.call<{ data: PermissionNode[] }>({
          method: 'GET',
          path: 'webtool/identity_access/permissions',
        })
      ).data,
    staleTime: Infinity,
  });
  return tree;
}

/** The permission tree of a role: one radio group per feature (none, basic, advance, scout). */
export function PermissionTreeInput({ field: schemaField }: InputKindProps) {
  const translate = useTranslate();
  const { field } = useInput({ source: schemaField.source, defaultValue: [] });
  const tree = usePermissionTree();
  const policies = (field.value ?? []) as Policy[];

  return (
    <Stack spacing={1} sx={{ width: '100%' }}>
      <Typography variant="subtitle1" component="h3">
        {translate('roles.permissions')}
      </Typography>
      {tree.map((node) => (
        <FormControl key={node.feature_name} component="fieldset">
          <FormLabel component="legend">
            {translate(`features.${node.feature_name}`, { _: node.feature_name })}
          </FormLabel>
          <RadioGroup
            row
            value={chosen(node, policies)}
            onChange={(event) => field.onChange(choose(node, policies, event.target.value))}
          >
            <FormControlLabel value="none" control={<Radio size="small" />} label={translate('roles.level.none')} />
            {node.options.map((option) => (
              <FormControlLabel
                key={option.level}
                value={option.level}
                control={<Radio size="small" />}
                label={translate(`roles.level.${option.level}`)}
              />
            ))}
          </RadioGroup>
        </FormControl>
      ))}
    </Stack>
  );
}

/** A role's permissions in the read-only view: each feature it holds, by name, with its level. */
export function PermissionTreeValue({ field }: ValueKindProps) {
  const translate = useTranslate();
  const record = useRecordContext();
  const tree = usePermissionTree();
  const policies = (record?.[field.source] ?? []) as Policy[];
  const held = tree.flatMap((node) => {
    const level = chosen(node, policies);
    return level === 'none' ? [] : [{ node, level }];
  });
  if (!held.length) return <Typography variant="body2">{translate('roles.level.none')}</Typography>;
  return (
    <Table size="small" sx={{ width: 'auto' }} data-testid="role-permissions">
      <TableBody>
        {held.map(({ node, level }) => (
          <TableRow key={node.feature_name}>
            <TableCell component="th" scope="row">
              {translate(`features.${node.feature_name}`, { _: node.feature_name })}
            </TableCell>
            <TableCell>{translate(`roles.level.${level}`)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
