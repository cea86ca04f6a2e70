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

/** What the read-only view passes to the display a resource registers for an `x-input.kind`. */
export interface ValueKindProps {
  field: FieldModel;
  /** Read by react-admin's Labeled for the label `resources.<name>.fields.<source>`. */
  source: string;
}

/**
 * `x-input.kind` name -> how the record view shows the field's value, registered by a resource
 * (`schemaResource(id, { values })`) where the list's cell would not read well (a week of opening hours).
 */
export type ValueKinds = Readonly<Record<string, ComponentType<ValueKindProps>>>;

const RegisteredValueKinds = createContext<ValueKinds>({});

export const ValueKindsProvider = RegisteredValueKinds.Provider;

/** The displays registered for the resource on screen. */
export function useValueKinds(): ValueKinds {
  return useContext(RegisteredValueKinds);
}

/** A registered display; `source` on this element gives it its label in the show layout. */
function RegisteredValue({ display, ...props }: ValueKindProps & { display: ComponentType<ValueKindProps> }) {
  return <Suspense fallback={<Skeleton variant="rounded" height={56} />}>{createElement(display, props)}</Suspense>;
}

/** The field's registered display, rendered; undefined when no resource registered its kind. */
export function registeredValue(kinds: ValueKinds, field: FieldModel): ReactElement | undefined {
  const kind = field.input.kind;
  if (!kind || !Object.hasOwn(kinds, kind)) return undefined;
  return <RegisteredValue key={field.source} display={kinds[kind]} field={field} source={field.source} />;
}
