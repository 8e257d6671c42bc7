-- docs/issues.md #43, finding 1: a vault method's key is (user_id, id) and a passkey's credential id is unique per
-- user, so another account's ids are free ids (no existence probe) and a duplicate of one's own is a plain 400.

-- DropIndex
DROP INDEX "vault_methods_credential_id_key";

-- DropIndex
DROP INDEX "vault_methods_user_id_idx";

-- AlterTable
ALTER TABLE "vault_methods" DROP CONSTRAINT "vault_methods_pkey",
ADD CONSTRAINT "vault_methods_pkey" PRIMARY KEY ("user_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "vault_methods_user_id_credential_id_key" ON "vault_methods"("user_id", "credential_id");
