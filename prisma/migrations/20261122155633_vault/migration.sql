-- AlterTable
ALTER TABLE "chats" ADD COLUMN     "vault" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "vaults" (
    "user_id" TEXT NOT NULL,
    "history_on" BOOLEAN NOT NULL DEFAULT true,
    "last_unlock_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "vaults_pkey" PRIMARY KEY ("user_id")
);

-- CreateTable
CREATE TABLE "vault_methods" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT,
    "wrapped_key" BYTEA NOT NULL,
    "kdf" JSONB NOT NULL,
    "credential_id" TEXT,
    "public_key" BYTEA,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),

    CONSTRAINT "vault_methods_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webauthn_challenges" (
    "user_id" TEXT NOT NULL,
    "challenge" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webauthn_challenges_pkey" PRIMARY KEY ("user_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "vault_methods_credential_id_key" ON "vault_methods"("credential_id");

-- CreateIndex
CREATE INDEX "vault_methods_user_id_idx" ON "vault_methods"("user_id");

-- AddForeignKey
ALTER TABLE "vaults" ADD CONSTRAINT "vaults_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vault_methods" ADD CONSTRAINT "vault_methods_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
