// SPDX-License-Identifier: GPL-2.0
/*
 * Make the kernel's pcrypt wrap an AEAD, so that ESP SAs added afterwards
 * run their crypto through the kernel's own padata: pcrypt instantiates
 * only when something asks for "pcrypt(...)" by name, and its instance
 * then wins, by priority, every later allocation of the wrapped algorithm.
 * The instance is registered under the wrapped algorithm's name, so the
 * request by the pcrypt(...) name itself ends in -ENOENT once it has
 * created the instance: what counts is what the wrapped name gives next.
 * The instance stays registered after that. The coexistence scenarios
 * load this next to padata.ko.
 */
#include <crypto/aead.h>
#include <linux/err.h>
#include <linux/module.h>
#include <linux/string.h>

static char *alg = "seqiv(rfc4106(gcm(aes)))";
module_param(alg, charp, 0444);
MODULE_PARM_DESC(alg, "the AEAD for pcrypt to wrap");

static int __init pcrypt_instance_init(void)
{
	char name[CRYPTO_MAX_ALG_NAME];
	struct crypto_aead *tfm;
	const char *driver;
	int ret = 0;

	if (snprintf(name, sizeof(name), "pcrypt(%s)", alg) >= sizeof(name))
		return -ENAMETOOLONG;
	tfm = crypto_alloc_aead(name, 0, 0);
	if (!IS_ERR(tfm))
		crypto_free_aead(tfm);

	tfm = crypto_alloc_aead(alg, 0, 0);
	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	driver = crypto_tfm_alg_driver_name(crypto_aead_tfm(tfm));
	if (strncmp(driver, "pcrypt(", 7))
		ret = -ENOENT;
	pr_info("pcrypt_instance: %s is %s\n", alg, driver);
	crypto_free_aead(tfm);
	return ret;
}

static void __exit pcrypt_instance_exit(void)
{
}

module_init(pcrypt_instance_init);
module_exit(pcrypt_instance_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("padnet test: instantiate a pcrypt(...) AEAD");
