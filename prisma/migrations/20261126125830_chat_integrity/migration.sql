-- AlterTable
ALTER TABLE "chats" ADD COLUMN     "header_ciphertext" BYTEA,
ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "vaults" ADD COLUMN     "manifest_ciphertext" BYTEA,
ADD COLUMN     "manifest_version" INTEGER NOT NULL DEFAULT 0;
