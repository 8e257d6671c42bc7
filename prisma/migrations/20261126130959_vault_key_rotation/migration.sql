-- AlterTable
ALTER TABLE "chats" ADD COLUMN     "key_generation" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "vault_methods" ADD COLUMN     "generation" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "vaults" ADD COLUMN     "key_generation" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "next_key_ciphertext" BYTEA;
