import { Stack, styled } from '@mui/material';
import { badgeTint } from '../badge-tint.ts';
import type { Choice } from './lookup-choices.ts';

/** A small outlined label, as a Chip looks, at a fraction of its cost. */
export const Badge = styled('span')(({ theme }) => ({
  display: 'inline-block',
  padding: '1px 8px',
  borderRadius: 12,
  border: `1px solid ${theme.palette.divider}`,
  fontSize: '0.8125rem',
  lineHeight: '20px',
  whiteSpace: 'nowrap',
}));

/**
 * The values of an array field (`array_with_badges`) whose lookup names them: one badge each, in the
 * item's colour when the list gives one (a light tint with text dark enough to read, see
 * badge-tint.ts), always with its name written, so colour is never the only cue.
 */
export function LookupBadgeList({
  values,
  choices,
}: {
  values: readonly unknown[];
  choices: ReadonlyMap<string, Choice> | undefined;
}) {
  return (
    <Stack
      component="span"
      direction="row"
      spacing={0.5}
      useFlexGap
      flexWrap="wrap"
      sx={{ display: 'inline-flex', verticalAlign: 'middle' }}
    >
      {values.map((value) => {
        const choice = choices?.get(String(value));
        const tint = badgeTint(choice?.color);
        return (
          <Badge
            key={String(value)}
            data-badge={String(value)}
            style={tint && { background: tint.background, color: tint.color, borderColor: tint.border }}
          >
            {choice?.name ?? String(value)}
          </Badge>
        );
      })}
    </Stack>
  );
}

/** Lookup choices by id, as the badge list reads them. */
export function choicesById(choices: readonly Choice[]): ReadonlyMap<string, Choice> {
  return new Map(choices.map((choice) => [String(choice.id), choice]));
}
