-- AlterTable
ALTER TABLE "chats" ADD COLUMN     "tree_ciphertext" BYTEA;
