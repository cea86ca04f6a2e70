import { useState } from 'react';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { Checkbox, FormControlLabel, Menu, MenuItem } from '@mui/material';
import { Button, useTranslate } from 'react-admin';
import type { FieldModel } from '../resource-model.ts';

/** The 'Columns' button: one checkbox per column; the last shown one cannot be unticked. */
export function ColumnMenu({
  resource,
  fields,
  hidden,
  onToggle,
}: {
  resource: string;
  fields: readonly FieldModel[];
  hidden: ReadonlySet<number>;
  onToggle: (index: number) => void;
}) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const shown = fields.filter((f) => !hidden.has(f.column.index)).length;
  return (
    <>
      <Button label="columns.button" onClick={(event) => setAnchor(event.currentTarget)} aria-haspopup="menu">
        <ViewColumnIcon />
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {fields.map((field) => {
          const visible = !hidden.has(field.column.index);
          const locked = visible && shown === 1;
          const label = translate(`resources.${resource}.fields.${field.source}`, { _: field.source });
          return (
            <MenuItem
              key={field.source}
              dense
              disableRipple
              sx={{ py: 0 }}
              title={locked ? translate('columns.keep_one') : undefined}
            >
              <FormControlLabel
                sx={{ width: '100%', m: 0 }}
                label={label}
                control={
                  <Checkbox
                    size="small"
                    checked={visible}
                    disabled={locked}
                    onChange={() => onToggle(field.column.index)}
                  />
                }
              />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
