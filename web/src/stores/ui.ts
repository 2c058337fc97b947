// UI store: which global dialog is open. Other features open dialogs from outside React, e.g. the landing page
// calls `useUiStore.getState().openAuthDialog('signup')`.
import { create } from 'zustand';

export type AuthDialogKind = 'login' | 'signup';

export interface UiState {
  /** the auth dialog on screen, or null */
  authDialog: AuthDialogKind | null;
  /** the payment dialog (spec §4: it opens after a successful signup) */
  paymentDialogOpen: boolean;
}

export interface UiActions {
  /** Opens the login or signup dialog (replacing the other one). */
  openAuthDialog: (kind: AuthDialogKind) => void;
  closeAuthDialog: () => void;
  /** Opens the payment dialog; the real checkout arrives with the payments feature. */
  openPaymentDialog: () => void;
  closePaymentDialog: () => void;
}

export type UiStore = UiState & UiActions;

export function createInitialUiState(): UiState {
  return { authDialog: null, paymentDialogOpen: false };
}

export const useUiStore = create<UiStore>()((set) => ({
  ...createInitialUiState(),
  openAuthDialog: (kind) => set({ authDialog: kind }),
  closeAuthDialog: () => set({ authDialog: null }),
  openPaymentDialog: () => set({ paymentDialogOpen: true, authDialog: null }),
  closePaymentDialog: () => set({ paymentDialogOpen: false }),
}));

/** Restores the initial UI state (tests). */
export function resetUiStore(): void {
  useUiStore.setState(createInitialUiState());
}

export const selectAuthDialog = (state: UiStore): AuthDialogKind | null => state.authDialog;
export const selectPaymentDialogOpen = (state: UiStore): boolean => state.paymentDialogOpen;
