import { createContext, createElement, Suspense, useContext, type ComponentType, type ReactElement } from 'react';
import { Skeleton } from '@mui/material';
import type { FieldModel } from '../resource-model.ts';

/** What the form passes to the widget of a registered `x-input.kind`. */
export interface InputKindProps {
  field: FieldModel;
  mode: 'create' | 'edit';
}

/**
 * `x-input.kind` name -> widget, registered by a resource (`schemaResource(id, { inputs })`), so a
 * widget of one resource lives in that resource's folder and the engine knows none of them. A
 * widget may be `React.lazy`, so that its code loads with the first form that shows it.
 */
export type InputKinds = Readonly<Record<string, ComponentType<InputKindProps>>>;

const RegisteredInputKinds = createContext<InputKinds>({});

export const InputKindsProvider = RegisteredInputKinds.Provider;

/** The widget registered for the field's kind, rendered; undefined when no resource registered it. */
export function useRegisteredInput({ field, mode }: InputKindProps): ReactElement | undefined {
  const kinds = useContext(RegisteredInputKinds);
  const kind = field.input.kind;
  if (!kind || !Object.hasOwn(kinds, kind)) return undefined;
  return (
    <Suspense fallback={<Skeleton variant="rounded" height={56} />}>
      {createElement(kinds[kind], { field, mode })}
    </Suspense>
  );
}
