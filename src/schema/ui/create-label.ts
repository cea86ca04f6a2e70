import { useTranslate } from 'react-admin';
import type { ResourceModel } from '../resource-model.ts';

/**
 * The create button's and page's words where the resource has its own (`resources.<name>.create`:
 * "Create booking", "Créer une réservation"), otherwise react-admin's "Create".
 */
export function useCreateLabel(model: ResourceModel): string | undefined {
  const translate = useTranslate();
  const key = `resources.${model.name}.create`;
  return translate(key, { _: '' }) ? key : undefined;
}
