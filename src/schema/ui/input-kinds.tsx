import { createContext, createElement, useContext, type ComponentType, type ReactElement } from 'react';
import type { FieldModel } from '../resource-model.ts';

/** What the form passes to the widget of a registered `x-input.kind`. */
export interface InputKindProps {
  field: FieldModel;
  mode: 'create' | 'edit';
}

/**
 * `x-input.kind` name -> widget, registered by a resource (`schemaResource(id, { inputs })`), so a
 * widget of one resource lives in that resource's folder and the engine knows none of them.
 */
export type InputKinds = Readonly<Record<string, ComponentType<InputKindProps>>>;

const RegisteredInputKinds = createContext<InputKinds>({});

export const InputKindsProvider = RegisteredInputKinds.Provider;

/** The widget registered for the field's kind, rendered; undefined when no resource registered it. */
export function useRegisteredInput({ field, mode }: InputKindProps): ReactElement | undefined {
  const kinds = useContext(RegisteredInputKinds);
  const kind = field.input.kind;
  return kind && Object.hasOwn(kinds, kind) ? createElement(kinds[kind], { field, mode }) : undefined;
}
