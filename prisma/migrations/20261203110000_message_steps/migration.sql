-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "steps_ciphertext" BYTEA;
