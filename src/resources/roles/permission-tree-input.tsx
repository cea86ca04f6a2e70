import { useQuery } from '@tanstack/react-query';
import { FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Stack, Typography } from '@mui/material';
import { useDataProvider, useInput, useTranslate } from 'react-admin';
import type { Policy } from '../../schema/permissions.ts';
import type { InputKindProps } from '../../schema/ui/input-kinds.tsx';

export interface PermissionNode {
  feature_name: string;
  parent_id: number | null;
  options: { level: 'basic' | 'advance' | 'scout'; feature_id: number }[];
}

type Caller = { call: <T>(request: { method: 'GET'; path: string }) => Promise<T> };

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

/** The permission tree of a role: one radio group per feature (none, basic, advance, scout). */
export function PermissionTreeInput({ field: schemaField }: InputKindProps) {
  const translate = useTranslate();
  const dataProvider = useDataProvider() as unknown as Caller;
  const { field } = useInput({ source: schemaField.source, defaultValue: [] });
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
