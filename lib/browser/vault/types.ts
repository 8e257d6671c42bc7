/** The unlocked vault: the key and the user id bound into each ciphertext. */
export interface VaultKey {
  key: CryptoKey;
  userId: string;
}
