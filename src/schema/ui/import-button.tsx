import { lazy, Suspense, useState } from 'react';
import UploadIcon from '@mui/icons-material/Publish';
import { Button, useCanAccess } from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';

/**
 * Bulk import from a CSV file (spec 02 §4, §5): the file is checked and previewed with every row's
 * errors; only a file whose rows are all valid can be sent, and the gateway imports all or nothing.
 * The dialog (papaparse, the CSV checks) is a chunk of its own, fetched on the button's first
 * click, not with the list (import-dialog.tsx).
 */
export function ImportButton({ model }: { model: ResourceModel }) {
  // Importing creates records: shown to those who may create them, whether or not a create page exists.
  const { canAccess } = useCanAccess({ resource: model.name, action: 'create' });
  return canAccess ? <ImportLauncher model={model} /> : null;
}

const ImportDialog = lazy(() => import('./import-dialog.tsx').then((module) => ({ default: module.ImportDialog })));

function ImportLauncher({ model }: { model: ResourceModel }) {
  const [open, setOpen] = useState(false);
  // Once opened, the dialog stays mounted: a closed dialog keeps its file and preview, as before.
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        label="import.button"
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        <UploadIcon />
      </Button>
      {opened && (
        <Suspense fallback={null}>
          <ImportDialog model={model} open={open} setOpen={setOpen} />
        </Suspense>
      )}
    </>
  );
}
